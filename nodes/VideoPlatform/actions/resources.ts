import * as room from './room';

/** Every resource the node offers. A new resource is one folder and one line here. */
export const resources = { room };
