-- The project's key rules (DESIGN §13), as project-service describes them: an upload's keys are
-- checked against their budget of work. Projects known before this column have NULL: their rules
-- are asked of project-service at their next upload (their ProjectUpdated may never come).
ALTER TABLE projects ADD COLUMN IF NOT EXISTS key_rules jsonb;
