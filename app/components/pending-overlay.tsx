import { useNavigation } from "react-router";
import { Spinner } from "#app/components/ui/page.tsx";

/** The full-screen spinner: shown (after a short delay, by CSS) while a navigation or form post is slow. */
export function PendingOverlay() {
  const navigation = useNavigation();
  if (navigation.state === "idle") return null;
  return (
    <div
      role="progressbar"
      aria-label="Loading"
      aria-busy="true"
      className="pending-overlay fixed inset-0 z-40 flex items-center justify-center bg-white/60 backdrop-blur-[1px]"
    >
      <Spinner className="h-10 w-10 text-brand-600" />
    </div>
  );
}
