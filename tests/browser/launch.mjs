// launch.mjs: what the browser scripts share. Headless Chromium started one way (the
// installed browser through puppeteer-core, a profile folder of the script's own, no
// background traffic, no sandbox: the tests run as root in CI), and check, which throws
// what failed.
import puppeteer from "puppeteer-core";

export function launch(chromium, profileDir) {
  return puppeteer.launch({
    executablePath: chromium,
    headless: true,
    userDataDir: profileDir,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
    ],
  });
}

export function check(cond, what) {
  if (!cond) throw new Error(what);
}
