-- byok-service: users' AI-provider keys, encrypted at rest. Runs inside the `byok` schema.

-- One row per user and provider. The key itself is stored only as AES-256-GCM ciphertext under
-- the master key `key_id` (kept beside it so master keys can be rotated), with its 12-byte nonce
-- and 16-byte authentication tag; the user id and the provider are bound to it as associated
-- data, so a ciphertext copied to another row does not decrypt. `hint` is the key's last four
-- characters, shown in lists without decrypting anything.
CREATE TABLE IF NOT EXISTS provider_keys (
  user_id    text NOT NULL,
  provider   text NOT NULL,
  key_id     text NOT NULL,
  nonce      bytea NOT NULL CHECK (octet_length(nonce) = 12),
  ciphertext bytea NOT NULL CHECK (octet_length(ciphertext) > 0),
  tag        bytea NOT NULL CHECK (octet_length(tag) = 16),
  hint       text NOT NULL,
  created_at timestamptz NOT NULL,
  -- When the user last stored the key; re-encryption under another master key leaves it.
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, provider)
);
