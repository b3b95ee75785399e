/* Scanning members' QR codes at the door (docs/decisions.md 58): the device's camera (qr-scanner, fetched when the
   camera is first opened) reads a booking's code and the sheet sends it to POST /api/course-sessions/{id}/check-in,
   which marks the member present or says in French why not. The camera keeps reading until it is closed, so a queue
   of members is checked in one after the other; the same code is sent once while it stays in front of the camera. */
import { useEffect, useRef, useState } from "react";

export const LABEL_SCAN = "Scanner les codes QR";
export const LABEL_SCAN_STOP = "Fermer la caméra";
export const MSG_CAMERA_UNAVAILABLE = "La caméra n'est pas accessible : autorisez-la dans le navigateur, ou pointez à la main.";
export const MSG_SCAN_HELP = "Présentez le code QR de la réservation devant la caméra.";

// The whole picture is read, not qr-scanner's default centred square of two thirds: at the door a member holds the
// phone close and rarely in the middle, and a code whose corner squares fall outside that square is never read. The
// picture is scaled down to at most 800 px wide before decoding, which keeps a phone's 1080p camera cheap to scan.
const MAX_DECODE_WIDTH = 800;
export function wholePicture(video) {
  const width = video.videoWidth;
  const height = video.videoHeight;
  const scale = Math.min(1, MAX_DECODE_WIDTH / width);
  return {
    x: 0,
    y: 0,
    width,
    height,
    downScaledWidth: Math.round(width * scale),
    downScaledHeight: Math.round(height * scale),
  };
}

export default function QrCheckin({ onCode }) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState("");
  const videoRef = useRef(null);
  const onCodeRef = useRef(onCode);
  onCodeRef.current = onCode;

  useEffect(() => {
    if (!open) return undefined;
    let scanner = null;
    let stopped = false;
    let last = "";
    (async () => {
      try {
        const { default: QrScanner } = await import(/* webpackChunkName: "qr-scanner" */ "qr-scanner");
        if (stopped) return;
        scanner = new QrScanner(
          videoRef.current,
          (result) => {
            if (!result.data || result.data === last) return;
            last = result.data;
            onCodeRef.current(result.data);
          },
          {
            returnDetailedScanResult: true,
            preferredCamera: "environment",
            maxScansPerSecond: 5,
            calculateScanRegion: wholePicture,
          },
        );
        await scanner.start();
      } catch (err) {
        console.error("Caméra", err);
        if (!stopped) setError(MSG_CAMERA_UNAVAILABLE);
      }
    })();
    return () => {
      stopped = true;
      scanner?.destroy();
    };
  }, [open]);

  if (!open) {
    return (
      <p>
        <button
          type="button"
          className="button button-secondary qr-checkin-open"
          onClick={() => {
            setError("");
            setOpen(true);
          }}
        >
          {LABEL_SCAN}
        </button>
      </p>
    );
  }
  return (
    <div className="qr-checkin">
      <p className="help">{MSG_SCAN_HELP}</p>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <video ref={videoRef} className="qr-checkin-video" muted playsInline aria-label="Image de la caméra" />
      <button type="button" className="button button-secondary" onClick={() => setOpen(false)}>
        {LABEL_SCAN_STOP}
      </button>
    </div>
  );
}
