import type { identityV1 } from '@clipit/contracts';
import { Injectable } from '@nestjs/common';
import { toTokenMessage } from '../domain/user.mapper.js';
import { TokenRepository } from '../repositories/token.repository.js';

@Injectable()
export class TokenService {
  constructor(private readonly tokens: TokenRepository) {}

  async listTokens(): Promise<identityV1.ListTokensResponse> {
    return { tokens: (await this.tokens.listActive()).map(toTokenMessage) };
  }
}
