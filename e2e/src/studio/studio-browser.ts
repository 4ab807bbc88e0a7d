import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import AxeBuilder from "@axe-core/playwright";
import { type Browser, chromium, type Page } from "playwright-core";

/** Where each step's screenshot goes (git-ignored). */
export const artifactsDirectory = fileURLToPath(new URL("../../artifacts/", import.meta.url));

/**
 * Debian's chromium (`scripts/services.sh start` installs it): `FRAMEWORK_CHROMIUM` when set,
 * else `chromium` on PATH. Nothing is ever downloaded.
 */
export function chromiumPath(): string | undefined {
  const given = process.env.FRAMEWORK_CHROMIUM;
  if (given) return existsSync(given) ? given : undefined;
  try {
    return execFileSync("which", ["chromium"], { encoding: "utf8" }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** A headless chromium as the toolchain notes launch it (no sandbox as root, no GPU). */
export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({
    executablePath,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
}

/** Saves the page as `e2e/artifacts/<name>.png`. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(artifactsDirectory, { recursive: true });
  await page.screenshot({ path: `${artifactsDirectory}${name}.png` });
}

/** The serious and critical accessibility violations axe finds on the page, described. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes
          .slice(0, 3)
          .map((node) => node.target.join(" "))
          .join(", ")}`,
    );
}
