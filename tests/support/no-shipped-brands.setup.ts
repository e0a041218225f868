// setupFiles of every vitest config: see no-shipped-brands.ts.
import { guardShippedBrands } from './no-shipped-brands';

guardShippedBrands();
