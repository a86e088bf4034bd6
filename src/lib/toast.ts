export type ToastTone = 'success' | 'error' | 'info';

export interface ToastItem {
  id: number;
  tone: ToastTone;
  message: string;
  durationMs: number;
}

type Listener = (items: readonly ToastItem[]) => void;

let items: readonly ToastItem[] = [];
let nextId = 1;
const listeners = new Set<Listener>();

function publish(next: readonly ToastItem[]) {
  items = next;
  for (const listener of listeners) listener(items);
}

/** A tiny store the <Toaster> renders; anything may raise a toast without holding React state. */
export const toasts = {
  /** Answers the toast's id, for `dismiss`. */
  show(tone: ToastTone, message: string, durationMs = 4000): number {
    const id = nextId++;
    publish([...items, { id, tone, message, durationMs }]);
    return id;
  },
  success(message: string) {
    this.show('success', message);
  },
  error(message: string) {
    this.show('error', message, 6000);
  },
  dismiss(id: number) {
    publish(items.filter((item) => item.id !== id));
  },
  subscribe(listener: Listener) {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
  snapshot: () => items,
};
