// `creative-sync simulator`: the built-in stand-in of the service, served until stopped.
import { acceleratedClock } from '../clock';
import { DEMO_API_KEY, startSimulator } from '../simulator';
import { UserError } from './handle-error';

export async function simulatorCommand(options: {
  port: string;
  speed: string;
  dialect: 'spec' | 'live';
  state?: string;
}): Promise<void> {
  const port = Number(options.port);
  const speed = Number(options.speed);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new UserError(`--port: '${options.port}' is not a port number.`);
  if (!(speed > 0)) throw new UserError(`--speed: '${options.speed}' is not a positive number.`);
  const simulator = await startSimulator({
    clock: acceleratedClock(speed),
    dialect: options.dialect,
    port,
    ...(options.state ? { statePath: options.state } : {}),
  });
  process.stdout.write(
    `simulator listening on ${simulator.url} (${options.dialect} dialect, time ×${speed})\n` +
      `try: SCORING_API_URL=${simulator.url} SCORING_API_KEY=${DEMO_API_KEY} npx creative-sync run\n`,
  );
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await simulator.close();
}
