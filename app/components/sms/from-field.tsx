import { type FieldMetadata, getSelectProps } from "@conform-to/react";
import { SelectField } from "#app/components/ui/field.tsx";

export type SenderChoice = { address: string; isDefault: boolean };

/** The From choice of the send forms: shown only when the account has more than one sender. */
export function FromField({ meta, senders }: { meta: FieldMetadata<string | undefined>; senders: SenderChoice[] }) {
  if (senders.length < 2) return null;
  const initial = meta.initialValue ?? senders.find((s) => s.isDefault)?.address ?? senders[0].address;
  return (
    <SelectField
      label="From"
      selectProps={{ ...getSelectProps(meta), defaultValue: String(initial) }}
      errors={meta.errors}
      help="The sender your recipients see; replies to it come back to you."
    >
      {senders.map((sender) => (
        <option key={sender.address} value={sender.address}>
          {sender.address}
          {sender.isDefault ? " (default)" : ""}
        </option>
      ))}
    </SelectField>
  );
}
