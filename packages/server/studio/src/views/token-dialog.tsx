import { type FormEvent, useState } from "react";
import { api } from "../api/client.js";

/**
 * Asks for the token a protected server wants. It is kept in this tab's session storage and
 * sent as `Authorization: Bearer`, never put in a URL.
 */
export function TokenDialog({ onAccepted }: { onAccepted: () => void }) {
  const [token, setToken] = useState("");
  const [refused, setRefused] = useState(false);
  const [checking, setChecking] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setChecking(true);
    const accepted = await api.tryToken(token.trim()).catch(() => false);
    setChecking(false);
    setRefused(!accepted);
    if (accepted) onAccepted();
  }

  return (
    <section className="token-gate" aria-labelledby="token-title">
      <h1 id="token-title">This server needs a token</h1>
      <p className="muted">
        It answered 401. Paste an API key or a JWT it accepts: the studio keeps it in this tab only
        (session storage) and sends it as <code>Authorization: Bearer</code>.
      </p>
      <form onSubmit={submit} className="stack">
        <label htmlFor="token">Token</label>
        <input
          id="token"
          type="password"
          autoComplete="off"
          value={token}
          onChange={(event) => setToken(event.target.value)}
          required
        />
        {refused ? (
          <p className="error-text" role="alert">
            The server did not accept this token.
          </p>
        ) : null}
        <button type="submit" disabled={checking || token.trim() === ""}>
          {checking ? "Checking…" : "Use this token"}
        </button>
      </form>
    </section>
  );
}
