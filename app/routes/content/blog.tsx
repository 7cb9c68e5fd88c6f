import { Placeholder } from "../../components/placeholder.tsx";

export default function Screen() {
  return <Placeholder title="The Ultimate Guide to SMS API Services" />;
}
