-- Before the baseline, which indexes `name collate nocase`: SQLite's NOCASE as a collation of the same
-- name, so that expression (and every query ordering or comparing by it) reads the same on both
-- engines. Case-insensitive, accent-sensitive ICU comparison (ks-level2); see decision 126.
CREATE COLLATION IF NOT EXISTS nocase (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
