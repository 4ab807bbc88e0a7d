const key = "framework-studio-token";

/**
 * The token the page sends as `Authorization: Bearer …`, kept in this tab's session storage:
 * gone when the tab closes, never in a URL (so never in history, logs or a Referer).
 */
export const tokenStore = {
  get(): string | undefined {
    try {
      return sessionStorage.getItem(key) ?? undefined;
    } catch {
      return undefined;
    }
  },
  set(token: string): void {
    sessionStorage.setItem(key, token);
  },
  clear(): void {
    sessionStorage.removeItem(key);
  },
};
