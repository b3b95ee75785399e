/* The simulator's payment window, in its own chunk with SimulatorPane: a method, then the scenario to demonstrate (the
   values are the server's `method` and `scenario` of /api/paypal/simulator/approve), and the 3-D Secure dialog. */
export const MSG_SIMULATOR_WINDOW = "Fenêtre de paiement simulée";
export const MSG_METHOD_LEGEND = "Moyen de paiement";
export const SIMULATOR_METHODS = [
  { value: "card", label: "Carte bancaire" },
  { value: "wallet", label: "Apple Pay / Google Pay" },
];
export const MSG_SCENARIO_LEGEND = "Scénario de démonstration";
export const SIMULATOR_SCENARIOS = {
  card: [
    { value: "success", label: "Paiement accepté" },
    { value: "challenge", label: "Authentification 3-D Secure" },
    { value: "declined", label: "Carte refusée" },
  ],
  wallet: [
    { value: "success", label: "Paiement accepté" },
    { value: "declined", label: "Paiement refusé" },
  ],
};
export const MSG_SIMULATE_PAY = "Payer (simulation)";
export const MSG_CHALLENGE_TITLE = "Authentification 3-D Secure (simulée)";
export const MSG_CHALLENGE_BODY =
  "Votre banque demande de confirmer ce paiement. En vrai, cette étape a lieu dans l'application de votre banque. Ici, choisissez l'issue à simuler.";
export const MSG_CHALLENGE_PASS = "Valider";
export const MSG_CHALLENGE_FAIL = "Refuser";

