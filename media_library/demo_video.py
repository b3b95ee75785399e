"""A short demo video made locally, without any download: Chromium draws on a canvas and records it with
MediaRecorder (WebM/VP8). Used by seed.py only; returns None when no Chromium is available.

Run as a separate process (`python -m media_library.demo_video OUT.webm`) so Playwright's event loop never shares
a thread with the ORM.
"""

import base64
import os
import subprocess
import sys
import tempfile
from pathlib import Path

RECORD_JS = """
async ([seconds, hue]) => {
  const canvas = document.createElement('canvas'); canvas.width = 640; canvas.height = 360;
  const ctx = canvas.getContext('2d');
  const options = {mimeType: 'video/webm;codecs=vp8', videoBitsPerSecond: 700000};
  const recorder = new MediaRecorder(canvas.captureStream(25), options);
  const chunks = [];
  recorder.ondataavailable = (event) => chunks.push(event.data);
  const stopped = new Promise((resolve) => { recorder.onstop = resolve; });
  recorder.start(100);
  const start = performance.now();
  await new Promise((resolve) => {
    function frame() {
      const t = (performance.now() - start) / 1000;
      const gradient = ctx.createLinearGradient(0, 0, 640, 360);
      gradient.addColorStop(0, `hsl(${hue + 25 * Math.sin(t)}, 55%, 22%)`);
      gradient.addColorStop(1, `hsl(${hue + 30 + 20 * Math.cos(t)}, 65%, 42%)`);
      ctx.fillStyle = gradient; ctx.fillRect(0, 0, 640, 360);
      for (let i = 0; i < 7; i++) {
        ctx.beginPath(); ctx.fillStyle = `rgba(255, 220, 245, ${0.06 + 0.03 * i})`;
        ctx.arc(320 + 230 * Math.sin(t * 0.7 + i), 180 + 120 * Math.cos(t * 0.5 + i * 1.3), 26 + 9 * i, 0, 2 * Math.PI);
        ctx.fill();
      }
      if (t < seconds) requestAnimationFrame(frame); else resolve();
    }
    frame();
  });
  recorder.stop(); await stopped;
  const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer());
  let text = ''; for (let i = 0; i < bytes.length; i++) text += String.fromCharCode(bytes[i]);
  return btoa(text);
}
"""


def _record(out: Path, seconds: int, hue: int = 295) -> None:
    from playwright.sync_api import sync_playwright

    chromium = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium if Path(chromium).exists() else None,
            args=["--no-sandbox", "--disable-gpu"],
            headless=True,
        )
        page = browser.new_page()
        page.goto("about:blank")
        out.write_bytes(base64.b64decode(page.evaluate(RECORD_JS, [seconds, hue])))
        browser.close()


def generate_webm(seconds: int = 4, timeout: int = 90, hue: int = 295) -> bytes | None:
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "demo.webm"
        try:
            subprocess.run(
                [sys.executable, "-m", "media_library.demo_video", str(out), str(seconds), str(hue)],
                check=True,
                timeout=timeout,
                capture_output=True,
                cwd=Path(__file__).resolve().parent.parent,
            )
        except (OSError, subprocess.SubprocessError):
            return None
        data = out.read_bytes() if out.exists() else b""
        return data or None


if __name__ == "__main__":
    _record(
        Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 4, int(sys.argv[3]) if len(sys.argv) > 3 else 295
    )
