/**
 * The password hash cost of every test platform (PASSWORD_HASH_COST, log2 of scrypt's N): the lowest identity
 * accepts, not production's 15. The journeys sign up and log in hundreds of times; at 15 the hashing alone
 * took most of the processor (the bad-input walk: 101 of its 110 CPU seconds went to 32 with 10; the fault
 * suite: identity's processes used 120 of its 470 CPU seconds).
 */
export const TEST_PASSWORD_HASH_COST = 10;
