import type { identityV1 } from '@clipit/contracts';
import { notFound } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import { toTokenMessage } from '../domain/user.mapper.js';
import { TokenRepository } from '../repositories/token.repository.js';

@Injectable()
export class TokenService {
  constructor(private readonly tokens: TokenRepository) {}

  async listTokens(): Promise<identityV1.ListTokensResponse> {
    return { tokens: (await this.tokens.listActive()).map(toTokenMessage) };
  }

  async getToken(id: string): Promise<identityV1.Token> {
    const token = await this.tokens.findById(id);
    if (!token) throw notFound('Token not found');
    return toTokenMessage(token);
  }
}
