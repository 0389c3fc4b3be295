/**
 * Moved to main/demo-client/ (so main/nom151 and main/demo-server no longer import each other). Kept only for
 * main/review/service.ts, which is being reworked elsewhere; point that import at '../demo-client' and delete this.
 */
export { demoRoutes, type DemoRoutes } from '../demo-client';
