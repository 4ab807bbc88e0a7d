import { lazy, Suspense, useEffect, useState } from "react";
import { onAuthChange } from "./api/client.js";
import { ErrorBoundary } from "./components/error-boundary.js";
import { TokenDialog } from "./views/token-dialog.js";

/** The views, each loaded when first opened so that the first load stays small. */
const views = {
  assistants: {
    title: "Assistants",
    View: lazy(() => import("./views/assistants-view.js")),
  },
  chat: { title: "Chat", View: lazy(() => import("./views/chat-view.js")) },
  threads: { title: "Threads", View: lazy(() => import("./views/threads-view.js")) },
  approvals: { title: "Approvals", View: lazy(() => import("./views/approvals-view.js")) },
  traces: { title: "Traces", View: lazy(() => import("./views/traces-view.js")) },
} as const;

type ViewName = keyof typeof views;
const isView = (name: string): name is ViewName => name in views;

/** The view a location names: `/studio/<view>/<rest>`. */
function locate(): { view: ViewName; rest: string } {
  const [name = "", ...rest] = location.pathname.replace(/^\/studio\/?/, "").split("/");
  return { view: isView(name) ? name : "assistants", rest: rest.map(decodeURIComponent).join("/") };
}

/** Opens a view (and what in it, e.g. a thread's id) as a new history entry. */
export function navigate(view: ViewName, rest = ""): void {
  const path = `/studio/${view}${rest ? `/${encodeURIComponent(rest)}` : ""}`;
  history.pushState(null, "", path);
  dispatchEvent(new PopStateEvent("popstate"));
}

export function App() {
  const [where, setWhere] = useState(locate);
  const [needsToken, setNeedsToken] = useState(false);
  useEffect(() => {
    const onPop = () => setWhere(locate());
    addEventListener("popstate", onPop);
    const unsubscribe = onAuthChange(setNeedsToken);
    return () => {
      removeEventListener("popstate", onPop);
      unsubscribe();
    };
  }, []);
  const { View, title } = views[where.view];
  useEffect(() => {
    document.title = `${title} · Studio`;
  }, [title]);

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <nav className="sidebar" aria-label="Studio">
        <p className="brand">Studio</p>
        <ul>
          {(Object.keys(views) as ViewName[]).map((name) => (
            <li key={name}>
              <a
                href={`/studio/${name}`}
                aria-current={name === where.view ? "page" : undefined}
                onClick={(event) => {
                  if (event.metaKey || event.ctrlKey || event.shiftKey) return;
                  event.preventDefault();
                  navigate(name);
                }}
              >
                {views[name].title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" className="content" tabIndex={-1}>
        {needsToken ? (
          <TokenDialog onAccepted={() => setWhere(locate())} />
        ) : (
          <ErrorBoundary key={where.view}>
            <Suspense fallback={<p className="muted">Loading…</p>}>
              <View key={`${where.view}`} selected={where.rest} />
            </Suspense>
          </ErrorBoundary>
        )}
      </main>
    </div>
  );
}
