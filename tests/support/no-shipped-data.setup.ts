// setupFiles of every vitest config: see no-shipped-data.ts.
import { guardShippedData } from './no-shipped-data';

guardShippedData();
