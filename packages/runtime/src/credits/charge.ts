// Credits belong to metering (@atelier/metering): re-exported for the runtime's importers.
export { chargeCredits, type ChargeInput } from '@atelier/metering';
