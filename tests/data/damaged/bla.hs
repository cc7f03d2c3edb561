{-# LANGUAGE NumericUnderscores #-}
-- bla: the runtime-damaged corpus program (ghc96-bla-hc-p-lau-1.hs), sized by its arguments:
-- ITERATIONS (default 30) and ENDOS per iteration (default 10000).
module Main where
import Data.ByteString (ByteString)
import qualified Data.ByteString as BS
import Data.Foldable (for_)
import Data.Monoid (Endo (..))
import System.Environment (getArgs)
largeEndo :: Endo ByteString
largeEndo = Endo $ \x -> BS.replicate 100 97 <> x
manyEndos :: Int -> Endo ByteString -> Endo ByteString
manyEndos n = mconcat . replicate n
main :: IO ()
main = do
  args <- getArgs
  let (iters, n) = case args of
        (a:b:_) -> (read a, read b)
        (a:_) -> (read a, 10_000)
        _ -> (30, 10_000)
  for_ [1 .. iters :: Int] $ \_ -> BS.putStr $ appEndo (manyEndos n largeEndo) mempty
