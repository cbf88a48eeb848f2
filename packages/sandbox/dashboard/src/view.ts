// What the shell hands every view.
import type { Message } from './feedback.js';
import type { Clients } from './session.js';

/** What every view gets: the clients, a version that grows after each action, and the page's message line. */
export interface ViewProps {
  clients: Clients;
  version: number;
  /** Reloads every view (after an action). */
  refresh(): void;
  say(message: Message): void;
}
