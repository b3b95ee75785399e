/* Web Push handlers (push, notificationclick). Placeholder: the notifications work fills it; the service worker
   imports it so that one worker serves both the offline pages and the pushes. */
