/* Whether a booking refusal asks for the health declaration (docs/decisions.md 48): kept apart from HealthStep.jsx so
   that the popup knows it without loading the step. */
export const HEALTH_CODES = ["declaration_required", "declaration_renew"];

export function asksHealth(err) {
  return err?.status === 409 && HEALTH_CODES.includes(err?.data?.code);
}
