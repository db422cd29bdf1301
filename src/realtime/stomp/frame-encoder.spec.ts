import { encodeFrame } from './frame-encoder';

describe('encodeFrame', () => {
  it('should write command, headers, content-length, body and NUL', () => {
    const frame = encodeFrame('MESSAGE', [['destination', '/topic/a']], '1.2', 'héllo');
    expect(frame.toString()).toBe('MESSAGE\ndestination:/topic/a\ncontent-length:6\n\nhéllo\0');
  });

  it('should omit content-length for an empty body', () => {
    expect(encodeFrame('RECEIPT', [['receipt-id', '7']], '1.2').toString()).toBe('RECEIPT\nreceipt-id:7\n\n\0');
  });

  it('should escape header values in 1.1 and 1.2', () => {
    const frame = encodeFrame('ERROR', [['message', 'a:b\nc']], '1.2');
    expect(frame.toString()).toBe('ERROR\nmessage:a\\cb\\nc\n\n\0');
  });

  it('should not escape CONNECTED headers', () => {
    const frame = encodeFrame('CONNECTED', [['server', 'x:y']], '1.2');
    expect(frame.toString()).toBe('CONNECTED\nserver:x:y\n\n\0');
  });

  it('should turn line breaks into spaces where escaping does not apply', () => {
    const frame = encodeFrame('ERROR', [['message', 'a\nb']], '1.0');
    expect(frame.toString()).toBe('ERROR\nmessage:a b\n\n\0');
  });

  it('should copy binary bodies byte for byte', () => {
    const body = Buffer.from([0, 1, 255, 0, 10]);
    const frame = encodeFrame('MESSAGE', [], '1.2', body);
    expect(frame.subarray(frame.length - 6, frame.length - 1)).toEqual(body);
    expect(frame.toString('latin1')).toContain('content-length:5\n\n');
  });
});
