// Browser-safe: the live counter, the debit and the SMPP transport all split messages here.

export type SmsEncoding = "GSM-7" | "UCS-2";

/** 3GPP TS 23.038 default alphabet, indexed by septet value (0x1B is the escape to the extension table). */
const GSM_BASIC =
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u001bÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?" +
  "¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";

/** The extension table: each character costs the escape septet plus its own. */
const GSM_EXTENSION: Record<string, number> = {
  "\f": 0x0a,
  "^": 0x14,
  "{": 0x28,
  "}": 0x29,
  "\\": 0x2f,
  "[": 0x3c,
  "~": 0x3d,
  "]": 0x3e,
  "|": 0x40,
  "€": 0x65,
};

const GSM_ESCAPE = 0x1b;
const gsmBasic = new Map<string, number>();
for (let i = 0; i < GSM_BASIC.length; i++) if (i !== GSM_ESCAPE) gsmBasic.set(GSM_BASIC[i], i);

/** Units per segment: a single SMS, or each part of a concatenated one (the UDH takes the rest). */
export const SEGMENT_LIMITS = {
  "GSM-7": { single: 160, part: 153 },
  "UCS-2": { single: 70, part: 67 },
} as const;

/** Septets for GSM-7, UTF-16 code units for UCS-2 (an emoji outside the BMP is two). */
function unitsOf(char: string, encoding: SmsEncoding): number {
  if (encoding === "UCS-2") return char.length;
  return char in GSM_EXTENSION ? 2 : 1;
}

export type SplitMessage = { encoding: SmsEncoding; units: number; parts: string[]; nonGsm: string[] };

type Measured = { encoding: SmsEncoding; units: number; characters: number; nonGsm: string[] };

/** The encoding a body needs and its units, in one pass over its characters (no array made for them). */
function measure(body: string): Measured {
  let septets = 0;
  let characters = 0;
  const nonGsm: string[] = [];
  for (const char of body) {
    characters += 1;
    if (gsmBasic.has(char)) septets += 1;
    else if (char in GSM_EXTENSION) septets += 2;
    else if (!nonGsm.includes(char)) nonGsm.push(char);
  }
  // UCS-2 counts UTF-16 code units: the string's own length.
  if (nonGsm.length > 0) return { encoding: "UCS-2", units: body.length, characters, nonGsm };
  return { encoding: "GSM-7", units: septets, characters, nonGsm };
}

/** The parts of a body longer than one SMS (`measured` is its measure). */
function partsOf(body: string, { encoding }: Measured): string[] {
  const limit = SEGMENT_LIMITS[encoding].part;
  const parts: string[] = [];
  let current = "";
  let used = 0;
  for (const char of body) {
    const cost = unitsOf(char, encoding);
    if (used + cost > limit) {
      parts.push(current);
      current = "";
      used = 0;
    }
    current += char;
    used += cost;
  }
  parts.push(current);
  return parts;
}

function split(body: string, measured: Measured): SplitMessage {
  const { encoding, units, nonGsm } = measured;
  if (units === 0) return { encoding, units, parts: [], nonGsm };
  if (units <= SEGMENT_LIMITS[encoding].single) return { encoding, units, parts: [body], nonGsm };
  return { encoding, units, parts: partsOf(body, measured), nonGsm };
}

/**
 * Splits a body into the parts it is sent as. A character never straddles two parts: neither a
 * GSM escape pair nor a UTF-16 surrogate pair, so a part may end a unit short of its limit.
 */
export function splitMessage(body: string): SplitMessage {
  return split(body, measure(body));
}

export type SegmentCount = {
  /** Characters as the user sees them typed (Unicode code points). */
  characters: number;
  encoding: SmsEncoding;
  /** Septets (GSM-7) or UTF-16 code units (UCS-2). */
  units: number;
  segments: number;
  /** Units each segment holds at this length: 160/70 for one SMS, 153/67 per part when concatenated. */
  perSegment: number;
  /** Units still free in the last segment before another one is needed. */
  remaining: number;
  /** 1 credit per segment. */
  credits: number;
  /** The characters that force UCS-2 (empty for GSM-7). */
  nonGsm: string[];
};

const CREDITS_PER_SEGMENT = 1;

/** What a body costs: the one rule behind the live counter, the form's limit and the debit. */
export function countSegments(body: string): SegmentCount {
  const measured = measure(body);
  const { encoding, units, parts, nonGsm } = split(body, measured);
  const limits = SEGMENT_LIMITS[encoding];
  const segments = parts.length;
  const perSegment = segments > 1 ? limits.part : limits.single;
  let lastUnits = units;
  if (segments > 1) {
    lastUnits = 0;
    for (const char of parts[segments - 1]) lastUnits += unitsOf(char, encoding);
  }
  return {
    characters: measured.characters,
    encoding,
    units,
    segments,
    perSegment,
    remaining: perSegment - lastUnits,
    credits: segments * CREDITS_PER_SEGMENT,
    nonGsm,
  };
}

/** GSM-7 text as unpacked septets, one per octet, as SMPP carries data_coding 0. */
export function encodeGsm7(text: string): Uint8Array {
  // At most two septets a character, and every GSM character is one UTF-16 unit.
  const out = new Uint8Array(text.length * 2);
  let length = 0;
  for (const char of text) {
    const extension = GSM_EXTENSION[char];
    if (extension !== undefined) {
      out[length++] = GSM_ESCAPE;
      out[length++] = extension;
    } else {
      const septet = gsmBasic.get(char);
      if (septet === undefined) throw new Error(`Not in the GSM 03.38 alphabet: ${JSON.stringify(char)}`);
      out[length++] = septet;
    }
  }
  return out.subarray(0, length);
}

/** Reverses encodeGsm7 (e.g. receipt text that a library decoded as GSM). */
export function gsmSeptetOf(char: string): number | undefined {
  return gsmBasic.get(char);
}

const gsmExtensionChars = new Map(Object.entries(GSM_EXTENSION).map(([char, septet]) => [septet, char]));

/** Unpacked GSM-7 septets back to text; an escape to an undefined extension reads as the basic character (23.038). */
export function decodeGsm7(septets: Uint8Array): string {
  let text = "";
  for (let i = 0; i < septets.length; i++) {
    const septet = septets[i] & 0x7f;
    if (septet === GSM_ESCAPE && i + 1 < septets.length) {
      const next = septets[++i] & 0x7f;
      text += gsmExtensionChars.get(next) ?? GSM_BASIC[next];
    } else if (septet !== GSM_ESCAPE) text += GSM_BASIC[septet];
  }
  return text;
}
