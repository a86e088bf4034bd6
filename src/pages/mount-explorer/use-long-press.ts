import { useEffect, useRef, type PointerEvent } from 'react';

/** How long a finger rests on an item before it counts as a long press, as phones' file managers wait. */
const LONG_PRESS_MS = 500;
/** A finger that moves further than this is scrolling, not pressing. */
const SLOP_PX = 10;

/**
 * A long press of a finger on an item calls `onLongPress`; the click the browser sends when the finger lifts is
 * then swallowed (`swallowClick` answers true once). Mouse and pen presses are left alone.
 */
export function useLongPress<T>(onLongPress: (target: T) => void) {
  const press = useRef<{ timer: number; x: number; y: number; fired: boolean }>(undefined);
  const handler = useRef(onLongPress);
  handler.current = onLongPress;
  const cancel = () => {
    if (press.current) clearTimeout(press.current.timer);
  };
  useEffect(() => cancel, []);

  return {
    handlers: (target: T) => ({
      onPointerDown: (event: PointerEvent) => {
        cancel();
        if (event.pointerType !== 'touch') return void (press.current = undefined);
        const started = { x: event.clientX, y: event.clientY, fired: false, timer: 0 };
        started.timer = window.setTimeout(() => {
          started.fired = true;
          handler.current(target);
        }, LONG_PRESS_MS);
        press.current = started;
      },
      onPointerMove: (event: PointerEvent) => {
        const started = press.current;
        if (started && Math.hypot(event.clientX - started.x, event.clientY - started.y) > SLOP_PX) cancel();
      },
      onPointerUp: cancel,
      onPointerCancel: cancel,
    }),
    swallowClick: () => {
      const fired = press.current?.fired ?? false;
      if (fired) press.current = undefined;
      return fired;
    },
  };
}
