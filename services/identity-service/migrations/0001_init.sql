-- identity-service: users, refresh-token families, CLI device logins.
-- Runs inside the `identity` schema (search_path is set by the migrator).

CREATE TABLE IF NOT EXISTS users (
  user_id       text PRIMARY KEY,
  -- Stored trimmed and lower-cased, so uniqueness is case-insensitive.
  email         text NOT NULL CHECK (email = lower(btrim(email))),
  -- Self-describing: scrypt$N$r$p$salt$hash
  password_hash text NOT NULL,
  name          text,
  created_at    timestamptz NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS users_email_key ON users (email);

-- One family per sign-in; every rotation adds a token to the family. Reuse of a rotated token
-- revokes the whole family.
CREATE TABLE IF NOT EXISTS refresh_token_families (
  family_id  text PRIMARY KEY,
  user_id    text NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX IF NOT EXISTS refresh_token_families_user_idx ON refresh_token_families (user_id);

CREATE TABLE IF NOT EXISTS refresh_tokens (
  -- SHA-256 of the full token value; the token itself is never stored.
  token_hash bytea PRIMARY KEY,
  family_id  text NOT NULL REFERENCES refresh_token_families (family_id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  -- Set when the token was exchanged for its successor; presenting it again is reuse.
  rotated_at timestamptz
);
CREATE INDEX IF NOT EXISTS refresh_tokens_family_idx ON refresh_tokens (family_id);

-- RFC 8628 device authorization grants for `tolk login`.
CREATE TABLE IF NOT EXISTS device_codes (
  -- SHA-256 of the device code the CLI polls with.
  device_code_hash bytea PRIMARY KEY,
  -- Eight letters without the dash, upper-case.
  user_code        text NOT NULL,
  status           text NOT NULL CHECK (status IN ('pending', 'approved', 'denied', 'consumed')),
  -- Who approved or denied it.
  user_id          text REFERENCES users (user_id) ON DELETE CASCADE,
  interval_seconds integer NOT NULL,
  created_at       timestamptz NOT NULL,
  expires_at       timestamptz NOT NULL,
  last_polled_at   timestamptz,
  decided_at       timestamptz
);
CREATE UNIQUE INDEX IF NOT EXISTS device_codes_user_code_key ON device_codes (user_code);
CREATE INDEX IF NOT EXISTS device_codes_expires_idx ON device_codes (expires_at);
