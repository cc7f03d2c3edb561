{-# LANGUAGE BangPatterns #-}
-- markers40: 40 traceMarkerIO markers. 8 phases each allocate and retain a map and are
-- announced by a start and an end marker; between phases come bursts of 2 markers
-- called back to back (microseconds apart). Some marker texts hold non-ASCII text and
-- < & " ' characters. Also a few traceEventIO messages.
module Main where
import Debug.Trace (traceMarkerIO, traceEventIO)
import qualified Data.Map.Strict as M
import Data.IORef
import Control.Monad (forM_)
import Control.Exception (evaluate)

phase :: Int -> IO (M.Map Int [Int])
phase p = evaluate (M.fromList [ (i, [i .. i + p `mod` 4]) | i <- [1 .. 15000 * p] ])

busy :: Int -> Int
busy n = go 0 1 where
  go !a k | k > n = a
          | otherwise = go (a + (k * k) `mod` 7) (k + 1)

main :: IO ()
main = do
  keep <- newIORef []
  traceMarkerIO "start"                                   -- 1
  forM_ [1 .. 8 :: Int] $ \p -> do
    traceMarkerIO ("phase " ++ show p ++ " start")        -- 8 x
    m <- phase p
    _ <- evaluate (sum [ busy (6000000 + k + p) | k <- [1 .. 4] ])
    modifyIORef keep (m :)
    traceMarkerIO ("phase " ++ show p ++ " end")          -- 8 x
    traceMarkerIO ("burst " ++ show p ++ ".a")            -- 8 x 2, back to back
    traceMarkerIO ("burst " ++ show p ++ ".b")
    traceEventIO ("event after phase " ++ show p)
  traceMarkerIO "Ελληνικά Кириллица 漢字 café 🚀"        -- 34
  traceMarkerIO "tags <b> & \"quotes\" 'apos'"            -- 35
  traceMarkerIO "drop all"                                 -- 36
  writeIORef keep []
  m <- phase 4
  traceMarkerIO "rebuilt"                                  -- 37
  _ <- evaluate (busy (40000000 + M.size m))
  print (M.size m)
  traceMarkerIO "almost done 1"                            -- 38
  traceMarkerIO "almost done 2"                            -- 39
  traceMarkerIO "finished"                                 -- 40
