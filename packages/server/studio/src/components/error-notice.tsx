/** A failure as the server typed it (`{ error: { type, message } }`), never a blank screen. */
export function ErrorNotice({ type, message }: { type: string; message: string }) {
  return (
    <div className="error-notice" role="alert">
      <strong>{type}</strong>
      <span>{message}</span>
    </div>
  );
}
