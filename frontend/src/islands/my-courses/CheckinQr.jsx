/* The booking's QR code, shown at the studio door (docs/decisions.md 58): folded under a button-like summary, opened
   large enough for the attendance sheet's camera. The image comes drawn by the server (an SVG data URI in the
   history's `checkin` field), so it shows offline too. */

export const LABEL_CHECKIN_QR = "Mon code QR pour l'accueil";
export const MSG_CHECKIN_QR_HELP = "Présentez ce code à l'accueil : il vous pointe présent(e) à ce cours.";

export default function CheckinQr({ row }) {
  if (!row.checkin) return null;
  return (
    <details className="checkin-qr">
      <summary>
        {LABEL_CHECKIN_QR}
        <span className="visually-hidden"> ({row.title})</span>
      </summary>
      <img src={row.checkin.image} width="240" height="240" alt={`Code QR de la réservation ${row.title}`} />
      <span className="help">{MSG_CHECKIN_QR_HELP}</span>
    </details>
  );
}
