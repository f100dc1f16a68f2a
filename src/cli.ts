// Command-line entry: maps argv to options and calls a command; errors set the exit code.

import { handleError } from './commands/handle-error';
import { buildProgram } from './commands/program';

buildProgram().parseAsync(process.argv).catch(handleError);
