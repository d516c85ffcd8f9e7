// The entry of the proxy's judging thread (engine/observed/worker-judge.ts): a worker starts with
// none of the main thread's module hooks, so it lets Node load the TypeScript sources first
// (bin/register.js), then runs the judging thread.
import './register.js';

await import('../engine/observed/judge-worker.ts');
