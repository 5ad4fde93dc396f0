-- token-service: a member's live tokens, found when they leave a project or delete their
-- account (ProjectMembershipChanged removed, UserDeleted revoke the tokens they created).
CREATE INDEX IF NOT EXISTS api_tokens_creator_idx ON api_tokens (created_by) WHERE revoked_at IS NULL;
