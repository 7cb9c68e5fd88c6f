import { Placeholder } from "../../components/placeholder.tsx";

export default function Screen() {
  return <Placeholder title="Contact Us" />;
}
