/* Deletions ask first: nothing is removed by one stray click. */
import Modal from "../../components/Modal.jsx";

export default function ConfirmDialog({ open, question, busy, error, onConfirm, onCancel, returnFocus }) {
  return (
    <Modal open={open} title="Confirmer la suppression" onClose={onCancel} className="dash-confirm" returnFocus={returnFocus}>
      <p>{question}</p>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="modal-actions">
        <button type="button" className="button button-secondary" onClick={onCancel}>
          Annuler
        </button>
        <button type="button" className="button button-danger" onClick={onConfirm} disabled={busy}>
          Supprimer
        </button>
      </div>
    </Modal>
  );
}
