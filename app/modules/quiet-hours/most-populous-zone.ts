// The countries with several zones in the tz database's zone.tab, each with the zone most of its
// people live in (decision record 062). AQ and UM have no resident population to speak of: absent,
// so their numbers fall back to the account's zone.
export const MOST_POPULOUS_ZONE: Readonly<Record<string, string>> = {
  AR: "America/Argentina/Buenos_Aires", // of 12
  AU: "Australia/Sydney", // of 12
  BR: "America/Sao_Paulo", // of 16
  CA: "America/Toronto", // of 23
  CD: "Africa/Kinshasa", // of 2
  CL: "America/Santiago", // of 4
  CN: "Asia/Shanghai", // of 2
  CY: "Asia/Nicosia", // of 2
  DE: "Europe/Berlin", // of 2
  EC: "America/Guayaquil", // of 2
  ES: "Europe/Madrid", // of 3
  FM: "Pacific/Chuuk", // of 3
  GL: "America/Nuuk", // of 4
  ID: "Asia/Jakarta", // of 4
  KI: "Pacific/Tarawa", // of 3
  KZ: "Asia/Almaty", // of 7
  MH: "Pacific/Majuro", // of 2
  MN: "Asia/Ulaanbaatar", // of 2
  MX: "America/Mexico_City", // of 12
  MY: "Asia/Kuala_Lumpur", // of 2
  NZ: "Pacific/Auckland", // of 2
  PF: "Pacific/Tahiti", // of 3
  PG: "Pacific/Port_Moresby", // of 2
  PS: "Asia/Hebron", // of 2
  PT: "Europe/Lisbon", // of 3
  RU: "Europe/Moscow", // of 26
  UA: "Europe/Kyiv", // of 2
  US: "America/New_York", // of 29
  UZ: "Asia/Tashkent", // of 2
};
