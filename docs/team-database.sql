-- Omni Reviewer: a team database on PostgreSQL 14 or newer. Run as an administrator (psql -f), then give each
-- analyst their host, port, database, user and password for Settings > Team database.
-- Replace the passwords; add one LOGIN role per analyst.

CREATE ROLE omni_owner LOGIN PASSWORD 'change-me-owner';
CREATE ROLE omni_reviewers NOLOGIN;
CREATE DATABASE omni_review OWNER omni_owner;
\connect omni_review
-- Only the owner creates tables: the first start with its login makes the schema (the app's migrations).
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO omni_reviewers;
-- What the owner creates, reviewers may read and write; the audit trail refuses changes to past entries by trigger,
-- for every role, the owner included.
ALTER DEFAULT PRIVILEGES FOR ROLE omni_owner IN SCHEMA public
  GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO omni_reviewers;
ALTER DEFAULT PRIVILEGES FOR ROLE omni_owner IN SCHEMA public
  GRANT USAGE, SELECT ON SEQUENCES TO omni_reviewers;

CREATE ROLE ana LOGIN PASSWORD 'change-me-ana' IN ROLE omni_reviewers;
