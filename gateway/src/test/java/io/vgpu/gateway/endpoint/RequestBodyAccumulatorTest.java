package io.vgpu.gateway.endpoint;

import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A body read in chunks comes out as exactly the bytes sent, whatever its declared length says: the declared length
 * met (read into one array of that size, handed on without a copy), exceeded, not reached, absent, or above what is
 * read straight into an array.
 */
class RequestBodyAccumulatorTest {

    @ParameterizedTest(name = "{0} bytes sent, {1} declared, chunks of up to {2}")
    @CsvSource({
            "83000, 83000, 8192",
            "83000, 83000, 100000",
            "83000, 1000, 8192",
            "1000, 83000, 300",
            "83000, -1, 8192",
            "300000, 300000, 65536",
            "0, 0, 10",
            "5, -1, 1"})
    void theBytesReadAreTheBytesSent(int sent, long declared, int maxChunk) {
        byte[] body = new byte[sent];
        new Random(sent).nextBytes(body);
        RequestBody.Accumulator read = new RequestBody.Accumulator(declared);
        Random chunks = new Random(maxChunk);
        for (int at = 0; at < sent; ) {
            int n = Math.min(sent - at, 1 + chunks.nextInt(maxChunk));
            read.append(Buffer.buffer().appendBytes(body, at, n));
            at += n;
            assertThat(read.length()).isEqualTo(at);
        }
        assertThat(read.bytes()).isEqualTo(body);
    }
}
