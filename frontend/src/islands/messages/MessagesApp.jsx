/* Member conversations (/user/messages) and the staff view of one message (/messages/<id>).
   Every message and reply is rendered as a React text node: HTML in a message stays text. */
import { useCallback, useEffect, useRef, useState } from "react";
import { api } from "../../components/api.js";
import { formatMediumDateTime } from "../../components/format.js";
import { useApi } from "../../components/useApi.js";

export const formatDate = formatMediumDateTime;

function ThreadItem({ author, date, text, fromStaff }) {
  return (
    <li className={`thread-item${fromStaff ? " from-staff" : ""}`}>
      <div className="thread-item-head">
        <span className="thread-item-author">{author}</span>
        <time dateTime={date}>{formatDate(date)}</time>
      </div>
      <p className="thread-item-text">{text}</p>
    </li>
  );
}

export function ReplyBox({ message, texts, onReplied }) {
  const [text, setText] = useState("");
  const [error, setError] = useState("");
  const [sending, setSending] = useState(false);

  const submit = async (event) => {
    event.preventDefault();
    setError("");
    if (!message) {
      setError(texts.noSelection);
      return;
    }
    if (!text.trim()) {
      setError(texts.replyBlank);
      return;
    }
    setSending(true);
    try {
      const data = await api(`/api/contact-messages/${message.id}/response`, { method: "PUT", body: { response_text: text } });
      onReplied(data.updatedResponses || []);
      setText("");
    } catch (err) {
      setError(err.status === 401 || err.status === 404 ? texts.noSelection : texts.replyFailed);
    } finally {
      setSending(false);
    }
  };

  return (
    <form className="reply-form" onSubmit={submit} noValidate>
      <label htmlFor="reply-text">Votre réponse</label>
      <textarea id="reply-text" value={text} onChange={(e) => setText(e.target.value)} maxLength={5000} aria-describedby={error ? "reply-error" : undefined} />
      {error && (
        <p id="reply-error" className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="reply-actions">
        <button type="submit" className="button" disabled={sending}>
          {sending ? "Envoi…" : "Répondre"}
        </button>
      </div>
    </form>
  );
}

export function Thread({ message, mode, texts, onReplied, focusOnOpen = false, children }) {
  const staffView = mode === "staff";
  const heading = useRef(null);
  useEffect(() => {
    // A conversation chosen in the list: move focus (and the small screen's view) to it.
    if (focusOnOpen && heading.current) heading.current.focus();
  }, [message.id, focusOnOpen]);
  const authorOf = (reply) => (reply.author_role === "staff" ? "Admin" : staffView ? reply.author : "Vous");
  return (
    <article className="thread" aria-labelledby="thread-title">
      <h2 id="thread-title" ref={heading} tabIndex={-1}>
        {message.subject || "Sans sujet"}
      </h2>
      {staffView && (
        <dl className="thread-details">
          <dt>De</dt>
          <dd>{message.name}</dd>
          <dt>Email</dt>
          <dd>
            <a href={`mailto:${message.email}`}>{message.email}</a>
          </dd>
          {message.phone && (
            <>
              <dt>Téléphone</dt>
              <dd>{message.phone}</dd>
            </>
          )}
          <dt>Recontacter</dt>
          <dd>{message.followUp ? "Oui" : "Non"}</dd>
          <dt>Compte</dt>
          <dd>{message.user_id ? <a href={`/user/profile/${message.user_id}`}>Membre n° {message.user_id}</a> : "Visiteur sans compte"}</dd>
        </dl>
      )}
      <ol className="thread-items" aria-label="Conversation">
        <ThreadItem author={staffView ? message.name : "Vous"} date={message.created_at} text={message.message_text} fromStaff={false} />
        {message.responses.map((reply) => (
          <ThreadItem key={reply.id ?? reply.timestamp} author={authorOf(reply)} date={reply.timestamp} text={reply.response_text} fromStaff={reply.author_role === "staff"} />
        ))}
      </ol>
      <ReplyBox message={message} texts={texts} onReplied={onReplied} />
      {children}
    </article>
  );
}

export const MSG_NEW_FAILED = "Le message n'a pas pu être envoyé. Veuillez réessayer.";

/* "Nouveau message": a member writes to the studio from here, with a subject and a message. */
export function NewConversation({ texts, onStarted, onClose }) {
  const [subject, setSubject] = useState("");
  const [text, setText] = useState("");
  const [error, setError] = useState("");
  const [sending, setSending] = useState(false);
  const subjectRef = useRef(null);
  useEffect(() => {
    subjectRef.current?.focus();
  }, []);

  const submit = async (event) => {
    event.preventDefault();
    setError("");
    if (!subject.trim()) {
      setError(texts.subjectRequired);
      return;
    }
    if (!text.trim()) {
      setError(texts.textRequired);
      return;
    }
    setSending(true);
    try {
      const data = await api("/api/contact-messages/mine", { method: "POST", body: { subject, message: text } });
      onStarted(data);
    } catch (err) {
      setError(err.message && err.status >= 400 && err.status < 500 ? err.message : texts.newFailed || MSG_NEW_FAILED);
    } finally {
      setSending(false);
    }
  };

  return (
    <form className="reply-form new-conversation" onSubmit={submit} noValidate aria-labelledby="new-conversation-title">
      <h2 id="new-conversation-title">Nouveau message au studio</h2>
      <label htmlFor="new-subject">Sujet</label>
      <input id="new-subject" ref={subjectRef} type="text" value={subject} onChange={(e) => setSubject(e.target.value)} maxLength={200} aria-describedby={error ? "new-error" : undefined} />
      <label htmlFor="new-text">Message</label>
      <textarea id="new-text" value={text} onChange={(e) => setText(e.target.value)} maxLength={5000} aria-describedby={error ? "new-error" : undefined} />
      {error && (
        <p id="new-error" className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="reply-actions">
        <button type="button" className="button button-secondary" onClick={onClose}>
          Annuler
        </button>{" "}
        <button type="submit" className="button" disabled={sending}>
          {sending ? "Envoi…" : "Envoyer"}
        </button>
      </div>
    </form>
  );
}

export function MemberMessages({ userId, selectedId = null, texts }) {
  const list = useApi(userId ? `/api/contact-messages/user/${userId}` : null, { fallback: texts.fetchFailed });
  const setMessages = list.setData;
  const messages = userId ? list.data ?? (list.failure ? [] : null) : null;
  const [selected, setSelected] = useState(null);
  const [openError, setOpenError] = useState("");
  const [chosen, setChosen] = useState(false);
  const [writing, setWriting] = useState(false);
  const [notice, setNotice] = useState("");
  const error = userId ? openError || list.error : texts.noSelection;
  const unread = messages ? messages.filter((m) => m.unread).length : 0;

  const started = (conversation) => {
    const { notice: sent, ...message } = conversation;
    setMessages((current) => [message, ...(current || [])]);
    setWriting(false);
    setSelected(message);
    setChosen(true);
    setNotice(sent || "");
    if (window.location.pathname !== `/user/messages/${message.id}`) window.history.pushState({ id: message.id }, "", `/user/messages/${message.id}`);
  };

  const open = useCallback(
    async (id, { push = true } = {}) => {
      setOpenError("");
      try {
        const data = await api(`/api/contact-messages/${id}`);
        setSelected(data);
        setMessages((current) => (current ? current.map((m) => (m.id === id ? { ...m, unread: false } : m)) : current));
        if (push && window.location.pathname !== `/user/messages/${id}`) window.history.pushState({ id }, "", `/user/messages/${id}`);
      } catch {
        setOpenError(texts.fetchFailed);
      }
    },
    [texts, setMessages],
  );

  useEffect(() => {
    if (userId && selectedId) open(selectedId, { push: false });
  }, [userId, selectedId, open]);

  useEffect(() => {
    const onPop = () => {
      const match = window.location.pathname.match(/^\/user\/messages\/(\d+)$/);
      if (match) open(Number(match[1]), { push: false });
      else setSelected(null);
    };
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, [open]);

  const replied = (responses) => {
    setSelected((m) => ({ ...m, responses }));
  };

  return (
    <div className="messages-app has-list">
      <section aria-labelledby="conversations-title">
        <h2 id="conversations-title" className="visually-hidden">
          Conversations
        </h2>
        <p>
          <button
            type="button"
            className="button"
            onClick={() => {
              setNotice("");
              setWriting(true);
            }}
          >
            Nouveau message
          </button>
        </p>
        {unread > 0 && (
          <p className="conversation-unread-count" data-unread-count={unread}>
            {unread === 1 ? "1 conversation avec une nouvelle réponse" : `${unread} conversations avec une nouvelle réponse`}
          </p>
        )}
        {messages === null && <p role="status">Chargement des messages…</p>}
        {messages && messages.length === 0 && !error && <p>Vous n'avez encore aucun message.</p>}
        {messages && messages.length > 0 && (
          <ul className="conversation-list">
            {messages.map((m) => (
              <li key={m.id}>
                <button
                  type="button"
                  onClick={() => {
                    setChosen(true);
                    setWriting(false);
                    setNotice("");
                    open(m.id);
                  }} aria-current={selected?.id === m.id ? "true" : undefined}>
                  <span className="conversation-subject">{m.subject || "Sans sujet"}</span>
                  <span className="conversation-meta">
                    {formatDate(m.last_activity_at)} · {m.responses.length} réponse{m.responses.length > 1 ? "s" : ""}
                  </span>
                  {m.unread && <span className="conversation-unread">Nouvelle réponse</span>}
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <div>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        {notice && (
          <p className="form-success" role="status">
            {notice}
          </p>
        )}
        {writing ? (
          <NewConversation texts={texts} onStarted={started} onClose={() => setWriting(false)} />
        ) : selected ? (
          <Thread message={selected} mode="member" texts={texts} onReplied={replied} focusOnOpen={chosen} />
        ) : (
          messages && messages.length > 0 && <p className="help">Sélectionnez une conversation pour l'afficher.</p>
        )}
      </div>
    </div>
  );
}

export function StaffMessage({ messageId, backUrl = "/admin/contact-messages", texts }) {
  const { data: message, error: loadError, setData: setMessage } = useApi(`/api/contact-messages/${messageId}`, { fallback: texts.fetchFailed });
  const [deleteError, setDeleteError] = useState("");
  const error = deleteError || loadError;

  const remove = async () => {
    if (!window.confirm("Supprimer ce message et toutes ses réponses ?")) return;
    setDeleteError("");
    try {
      await api(`/api/contact-messages/${messageId}`, { method: "DELETE" });
      window.location.assign(backUrl);
    } catch {
      setDeleteError(texts.deleteFailed);
    }
  };

  return (
    <div className="messages-app">
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {!message && !error && <p role="status">Chargement du message…</p>}
      {message && (
        <Thread message={message} mode="staff" texts={texts} onReplied={(responses) => setMessage((m) => ({ ...m, responses }))}>
          <div>
            <button type="button" className="button button-danger button-small" onClick={remove}>
              Supprimer le message
            </button>
          </div>
        </Thread>
      )}
    </div>
  );
}

export default function MessagesApp(props) {
  return props.mode === "staff" ? <StaffMessage {...props} /> : <MemberMessages {...props} />;
}
