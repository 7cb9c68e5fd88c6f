import { Placeholder } from "../components/placeholder.tsx";

export default function Screen() {
  return <Placeholder title="Choose Your SMS Pricing Plan" />;
}
