import { type PointerEvent, useEffect, useRef, useState } from "react";
import type { Toast } from "#app/web/toast.ts";
import { cn } from "#app/web/class-names.ts";

const TOAST_MS = 5000;
/** The spec's drag threshold: a toast dragged sideways past this share of its width closes. */
const SWIPE_CLOSE_SHARE = 0.8;

/** Drag a toast sideways with a mouse, pen or finger; let go past the threshold and it closes. */
function useSwipeToClose(onClose: () => void) {
  const start = useRef<number | null>(null);
  const [offset, setOffset] = useState(0);
  const release = () => {
    start.current = null;
    setOffset(0);
  };
  return {
    dragging: offset !== 0,
    style: offset ? { translate: `${offset}px 0` } : undefined,
    onPointerDown: (event: PointerEvent<HTMLElement>) => {
      // The close button keeps its own click.
      if (event.button !== 0 || (event.target as HTMLElement).closest("button")) return;
      start.current = event.clientX;
      event.currentTarget.setPointerCapture(event.pointerId);
    },
    onPointerMove: (event: PointerEvent<HTMLElement>) => {
      if (start.current !== null) setOffset(event.clientX - start.current);
    },
    onPointerUp: (event: PointerEvent<HTMLElement>) => {
      if (start.current === null) return;
      const dragged = Math.abs(event.clientX - start.current);
      release();
      if (dragged > event.currentTarget.offsetWidth * SWIPE_CLOSE_SHARE) onClose();
    },
    onPointerCancel: release,
  };
}

function ToastItem({ toast, onClose }: { toast: Toast; onClose: () => void }) {
  const [hydrated, setHydrated] = useState(false);
  // Under the pointer a toast stays (its fade-out pauses in CSS too), so it can be read or swiped.
  const [hovered, setHovered] = useState(false);
  const { dragging, ...swipe } = useSwipeToClose(onClose);
  useEffect(() => {
    setHydrated(true);
    if (hovered) return;
    const timer = setTimeout(onClose, TOAST_MS + 300);
    return () => clearTimeout(timer);
  }, [onClose, hovered]);
  const accent = { success: "bg-emerald-400", error: "bg-red-400", info: "bg-sky-400" }[toast.type];
  return (
    <div
      role={toast.type === "error" ? "alert" : "status"}
      data-testid="toast"
      data-type={toast.type}
      onPointerEnter={() => setHovered(true)}
      onPointerLeave={() => setHovered(false)}
      {...swipe}
      className={cn(
        "toast-auto-close pointer-events-auto flex w-80 max-w-[calc(100vw-2rem)] touch-pan-y items-start gap-3 rounded-lg bg-slate-900 px-4 py-3 text-sm text-white shadow-xl select-none",
        dragging ? "cursor-grabbing" : "transition-[translate] duration-200",
      )}
    >
      <span aria-hidden="true" className={cn("mt-1.5 h-2 w-2 shrink-0 rounded-full", accent)} />
      <div className="flex-1">
        {toast.title ? <p className="font-semibold">{toast.title}</p> : null}
        <p>{toast.description}</p>
      </div>
      {hydrated ? (
        <button
          type="button"
          onClick={onClose}
          className="text-slate-400 hover:text-white"
          aria-label="Close notification"
        >
          &times;
        </button>
      ) : null}
    </div>
  );
}

/** Top-right dark toasts; they close after 5 seconds, with or without JavaScript. */
export function Toaster({ toast }: { toast: Toast | null }) {
  const [toasts, setToasts] = useState<Toast[]>(toast ? [toast] : []);
  useEffect(() => {
    if (toast) setToasts((current) => (current.some((t) => t.id === toast.id) ? current : [...current, toast]));
  }, [toast]);
  return (
    <div aria-live="polite" className="pointer-events-none fixed top-4 right-4 z-50 flex flex-col gap-2">
      {toasts.map((t) => (
        <ToastItem key={t.id} toast={t} onClose={() => setToasts((current) => current.filter((c) => c.id !== t.id))} />
      ))}
    </div>
  );
}
