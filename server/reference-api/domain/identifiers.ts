/**
 * The identifier checks live in schemas/ (shared): the BFF runs the very same ones when it
 * validates a bulk import, so a row the dry run accepts is one these validators accept.
 */
export * from '../../../schemas/business/identifiers'
