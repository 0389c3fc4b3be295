-- Omni Reviewer: a team database on PostgreSQL 14 or newer. Run as an administrator (psql -f), then give each
-- analyst their host, port, database, user and password for Settings > Team database.
-- Replace the passwords; add one LOGIN role per analyst. test/main/settings/team-database.test.ts runs this file.

-- The team's roles. The app's migrations grant each table to them and hold them to their rules in the database
-- itself (row-level security, triggers): a reviewer takes, renews and releases only their own claims and cannot
-- confirm their own proposal; a supervisor also reassigns claims and sets the team's rules; an admin also removes
-- decisions. Nobody changes or removes an audit entry, the owner included.
CREATE ROLE omni_reviewer NOLOGIN;
CREATE ROLE omni_supervisor NOLOGIN IN ROLE omni_reviewer;
CREATE ROLE omni_admin NOLOGIN IN ROLE omni_supervisor;

-- The owner runs the migrations: start the app once with its login after each update, before the analysts do.
CREATE ROLE omni_owner LOGIN PASSWORD 'change-me-owner';
CREATE DATABASE omni_review OWNER omni_owner;
\connect omni_review
-- A transaction left open (a psql session left at BEGIN, a client frozen or cut off mid-write) holds the locks it
-- took, the audit trail's among them, and every analyst's change waits on it: the server ends it after five idle
-- minutes (the app ends its own after one). A login can SET this off for its own sessions: that is denial of
-- service, seen in pg_stat_activity and stopped by whoever administers the server, never a change to the record.
ALTER DATABASE omni_review SET idle_in_transaction_session_timeout = '5min';
-- Large objects are no part of the record, and any login could fill the server's disk with them. (As a user that
-- is not a superuser, on a managed server, these only warn; the app does not rely on them.)
REVOKE EXECUTE ON FUNCTION lo_creat(integer), lo_create(oid), lo_from_bytea(oid, bytea) FROM PUBLIC;
-- Only the owner creates tables.
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO omni_reviewer;

-- The analysts: each connects with their own login, which is how the database knows who claimed, decided, confirmed
-- and wrote each audit entry.
CREATE ROLE ana LOGIN PASSWORD 'change-me-ana' IN ROLE omni_reviewer;
CREATE ROLE beto LOGIN PASSWORD 'change-me-beto' IN ROLE omni_reviewer;
CREATE ROLE sofia LOGIN PASSWORD 'change-me-sofia' IN ROLE omni_supervisor;
