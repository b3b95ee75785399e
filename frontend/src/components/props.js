/* An island's props, written by the `{% island %}` tag as a json_script beside its element. Kept apart from mount.jsx
   so that an island's small entry can read them without bringing React with it. */
export function readProps(element) {
  const source = element.dataset.props && document.getElementById(element.dataset.props);
  return source ? JSON.parse(source.textContent) : {};
}
