/* "Ajouter à mon agenda": a Google Calendar link and the booking's .ics (Apple, Outlook). */

function utcStamp(iso) {
  return new Date(iso).toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
}

/** The Google Calendar 'create event' link of a booking row ({title, date, end_date, instructor}). */
export function googleCalendarUrl(row, location = "") {
  const params = new URLSearchParams({
    action: "TEMPLATE",
    text: row.title,
    dates: `${utcStamp(row.date)}/${utcStamp(row.end_date || row.date)}`,
    details: row.instructor ? `Professeur : ${row.instructor}` : "",
    location,
    ctz: "Europe/Paris",
  });
  return `https://calendar.google.com/calendar/render?${params}`;
}

export function icsUrl(row) {
  return `/my-courses/${row.reservation_id}.ics`;
}
