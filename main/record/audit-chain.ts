/**
 * The audit trail's hash chain: each entry's hash covers its content and the previous entry's hash. The functions live
 * in chain-hash.mjs (plain JavaScript), so the chain walker's thread hashes with the very same code.
 */
export {
  GENESIS_HASH,
  canonicalJson,
  chainFieldsOf,
  chainRowHash,
  chainRowPreimage,
  entryHash,
  entryHashV2,
  entryPreimageV1,
  entryPreimageV2,
  extendChain,
  type ChainFieldsV2,
  type ChainRow,
} from './chain-hash.mjs';
