-- Grow.hs: a heap that grows steadily until the program is killed (tests/end_of_run.sh).
-- Every 20 ms a batch of 5,000 boxed Integers is kept alive in an IORef, after a
-- marker "batch N", and a major collection every third batch (the heap censuses of a
-- non-profiled program are taken at major collections); the eventlog is flushed after each batch (the heap censuses are
-- in the runtime's global buffer, which --eventlog-flush-interval does not flush), so
-- the eventlog's last marker, censuses and growth are known when it is killed.
import Control.Concurrent (threadDelay)
import Control.Monad (forM_, when)
import Data.IORef
import Debug.Trace (flushEventLog, traceMarkerIO)
import System.Mem (performMajorGC)

main :: IO ()
main = do
  kept <- newIORef []
  forM_ [1 :: Int ..] $ \i -> do
    traceMarkerIO ("batch " ++ show i)
    let xs = [fromIntegral (i * 100000 + j) :: Integer | j <- [1 .. 5000]]
    sum xs `seq` modifyIORef' kept (xs :)
    when (i `mod` 3 == 0) performMajorGC   -- a census at most every 60 ms (-i0.05)
    flushEventLog
    threadDelay 20000
