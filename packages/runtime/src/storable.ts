// Making text storable is about what Postgres can hold: it lives in @atelier/db, where metering (the
// inference log) and the runtime both reach it. Re-exported for the runtime's importers.
export { storableJson, storableJsonText, storableText } from '@atelier/db';
