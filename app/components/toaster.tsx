import { useEffect, useState } from "react";
import type { Toast } from "../utils/toast.ts";
import { cn } from "../utils/misc.ts";

const TOAST_MS = 5000;

function ToastItem({ toast, onClose }: { toast: Toast; onClose: () => void }) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => {
    setHydrated(true);
    const timer = setTimeout(onClose, TOAST_MS + 300);
    return () => clearTimeout(timer);
  }, [onClose]);
  const accent = { success: "bg-emerald-400", error: "bg-red-400", info: "bg-sky-400" }[toast.type];
  return (
    <div
      role={toast.type === "error" ? "alert" : "status"}
      data-testid="toast"
      data-type={toast.type}
      className="toast-auto-close pointer-events-auto flex w-80 max-w-[calc(100vw-2rem)] items-start gap-3 rounded-lg bg-slate-900 px-4 py-3 text-sm text-white shadow-xl"
    >
      <span aria-hidden="true" className={cn("mt-1.5 h-2 w-2 shrink-0 rounded-full", accent)} />
      <div className="flex-1">
        {toast.title ? <p className="font-semibold">{toast.title}</p> : null}
        <p>{toast.description}</p>
      </div>
      {hydrated ? (
        <button type="button" onClick={onClose} className="text-slate-400 hover:text-white" aria-label="Close notification">
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
