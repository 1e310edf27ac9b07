import { describe, expect, it, jest } from '@jest/globals';
import { answerRouterError, clientErrorAnswer } from './framework-errors.js';

describe('framework errors', () => {
  it('answers the router’s refusals in text', () => {
    const writeHead = jest.fn();
    const end = jest.fn();
    answerRouterError({ code: 'FST_ERR_MAX_PARAM_LENGTH' }, undefined, { raw: { writeHead, end } });
    expect(writeHead).toHaveBeenCalledWith(414, expect.objectContaining({ 'Content-Type': 'text/plain; charset=utf-8' }));
    expect(end).toHaveBeenCalledWith('The address is too long');
  });

  it('names what Node’s parser could not read', () => {
    expect(clientErrorAnswer('HPE_HEADER_OVERFLOW')).toEqual({ status: 431, message: 'Request headers are too large' });
    expect(clientErrorAnswer('ERR_HTTP_REQUEST_TIMEOUT')).toEqual({ status: 408, message: 'The request took too long to arrive' });
    expect(clientErrorAnswer('HPE_INVALID_METHOD')).toEqual({ status: 400, message: 'The request could not be read' });
  });
});
