import { Component, type ReactNode } from "react";
import { ErrorNotice } from "./error-notice.js";

/** Shows a view's failure as an error, never a blank screen, and lets the others work. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { error?: Error }> {
  override state: { error?: Error } = {};

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <ErrorNotice
        type={error.name || "Error"}
        message={`${error.message}. Reload the page to try again.`}
      />
    );
  }
}
