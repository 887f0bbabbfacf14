import v8 from 'node:v8'

/**
 * V8 settings of the portal's process, imported by main.ts before any other module.
 *
 * Allocation-site pretenuring off: V8 allocates the objects of a code site straight in the
 * old generation once it sees nearly all of them survive a young-generation collection.
 * Under load, a collection that runs while many requests are in flight can show that for
 * sites whose objects live exactly one request; from then on they are old-generation
 * garbage, every young collection scans the old-to-young pointers they leave, and full
 * collections follow. Measured on the proxy benchmark: whether a BFF process fell into it
 * was chance, decided in its first seconds, and for the rest of its life it then spent about
 * 30 % more CPU per request (11 full collections per 10 s instead of none, young
 * collections four times as costly); with pretenuring off no process did. What the portal
 * keeps for long (brands, screens, menus) is loaded once at start, so it loses nothing.
 */
v8.setFlagsFromString('--no-allocation-site-pretenuring')
