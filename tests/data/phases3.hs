{-# LANGUAGE BangPatterns #-}
-- phases3: three phases marked with traceMarker, "load", "serve" and "shutdown", for
-- tests/phases.sh (ev2hp --phases). "load" builds a table at once and keeps it, flat;
-- "serve" leaks: each of its 40 requests adds a map of 1500 entries to a log that is
-- never trimmed; "shutdown" drops the log and the table and idles. Built and run
-- (GHC 9.10.3, in the sid chroot of shared/tools/newghc.sh):
--   ghc -O1 -eventlog -rtsopts phases3.hs
--   ./phases3 +RTS -hT -l -i0.05 -RTS
--   gzip -9nc phases3.eventlog > phases3-hT.eventlog.gz
module Main where
import Debug.Trace (traceMarkerIO)
import qualified Data.Map.Strict as M
import Data.IORef
import Control.Monad (forM_)
import Control.Exception (evaluate)
import System.Mem (performGC)

-- work that allocates nothing retained, for about `n` steps
busy :: Int -> Int
busy n = go 0 1 where
  go !a k | k > n = a
          | otherwise = go (a + (k * k) `mod` 7) (k + 1)

idle :: Int -> IO ()
idle n = do
  _ <- evaluate (busy n)
  return ()

main :: IO ()
main = do
  traceMarkerIO "load"
  table <- evaluate (M.fromList [ (i, i * 3) | i <- [1 .. 20000 :: Int] ])
  idle (70000000 + M.size table)
  logRef <- newIORef ([] :: [M.Map Int Int])
  traceMarkerIO "serve"
  forM_ [1 .. 40 :: Int] $ \r -> do
    m <- evaluate (M.fromList [ (r * 10000 + i, i) | i <- [1 .. 1500 :: Int] ])
    modifyIORef' logRef (m :)
    idle (2000000 + r)
  n <- length <$> readIORef logRef
  _ <- evaluate (M.size table + n)
  traceMarkerIO "shutdown"
  writeIORef logRef []
  performGC
  idle (70000000 + n)
