import { Link, useNavigate } from "react-router";
import { buttonClass } from "#app/components/ui/button.tsx";

/** Goes back in history with JavaScript; without it (or on a first visit) follows the link. */
export function BackButton({ fallback }: { fallback: string }) {
  const navigate = useNavigate();
  return (
    <Link
      to={fallback}
      className={buttonClass({ variant: "secondary" })}
      onClick={(event) => {
        if (((window.history.state as { idx?: number } | null)?.idx ?? 0) > 0) {
          event.preventDefault();
          void navigate(-1);
        }
      }}
    >
      Back
    </Link>
  );
}
